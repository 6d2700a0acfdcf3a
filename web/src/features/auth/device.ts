/** A short name of the browser and system a User-Agent describes ("Firefox · Windows"). */
export function describeDevice(userAgent: string | null): { browser?: string; system?: string } {
  if (!userAgent) return {};
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? /HeadlessChrome/.test(ua)
            ? 'Chromium'
            : 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : undefined;
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : undefined;
  return { browser, system };
}
