// A readable name of a browser from its User-Agent, for the mail that tells an owner of a new sign-in.
// Only a hint (a User-Agent says what its sender wants): the mail says which browser claimed to be there.

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Linux", or "an unknown browser". */
export function browserName(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 300);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (!browser && !system) return 'an unknown browser';
  return `${browser ?? 'a browser'}${system ? ` on ${system}` : ''}`;
}
