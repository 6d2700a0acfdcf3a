/** Query-key root and API paths of the test player (SPEC.md §7 test-player). */
export const PLAYER_KEY = ['player'] as const;
export const MY_TESTS_PATH = '/test-player/mytests';
export const myTestPath = (testId: string) => `${MY_TESTS_PATH}/${encodeURIComponent(testId)}`;
