// stylis ships no types; the theme only hands its prefixer to Emotion.
declare module 'stylis' {
  import type { StylisPlugin } from '@emotion/cache';
  export const prefixer: StylisPlugin;
}
