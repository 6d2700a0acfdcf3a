// markdown-it builds a `linkify-it` matcher in its constructor, but statements are rendered with
// `linkify: false` (shared/statement-core.ts), so the matcher never runs: the web app gets this
// empty one in its place (web/vite.config.ts), 2–3 kB less on every student's first load.
export default class NoLinkify {
  test(): boolean {
    return false;
  }
  pretest(): boolean {
    return false;
  }
  match(): null {
    return null;
  }
  matchAtStart(): null {
    return null;
  }
}
