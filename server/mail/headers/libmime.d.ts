// libmime ships no types and there is no @types package; only what the scanner uses is declared.
declare module 'libmime' {
  interface Libmime {
    /** Decodes every RFC 2047 encoded word in `str`; text outside encoded words is returned unchanged. */
    decodeWords(str: string): string;
    /** Decodes one encoded word's payload from `charset` ('Q' or 'B' encoding). */
    decodeWord(charset: string, encoding: string, str: string): string;
    decodeFlowed(str: string, delSp?: boolean): string;
    normalizeCharset(charset: string): string;
  }
  const libmime: Libmime;
  export = libmime;
}
