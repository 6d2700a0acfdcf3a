/** See check-spec-coverage.mjs: docs/SPEC-COVERAGE.md checked against the code. */
export type Project = {
  routes: Set<string>;
  webSources: Map<string, string>;
  serverSources: Map<string, string>;
  specKeys?: string[];
  exists: (file: string) => boolean;
};
export const SPEC_ERROR_CODES: string[];
export const SPEC_SECTIONS: string[];
export function parseCoverage(text: string): {
  rows: {
    line: number;
    section: string;
    id: string;
    status: string;
    reason: string;
    calls: { method: string; path: string }[];
    keys: string[];
    codes: string[];
    files: string[];
    testFiles: string[];
  }[];
  headings: string[];
};
export function isKeyShown(key: string, sources: Map<string, string>): boolean;
export function isCodeProduced(code: string, sources: Map<string, string>): boolean;
export function checkCoverage(text: string, project: Project): string[];
export function loadProject(root: string): Project;
