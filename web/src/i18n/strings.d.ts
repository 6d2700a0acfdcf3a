// One part of a language's strings (parts.ts), made by the build from ro.json or en.json.
declare module '*.json?strings=core' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?strings=staff' {
  const strings: Record<string, unknown>;
  export default strings;
}
