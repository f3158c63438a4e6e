import { useEffect } from 'react';

/** What a visitor does to use a page; any of them starts the background load of the other screens. */
const INTERACTIONS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'scroll'] as const;

/**
 * From the visitor's first interaction with the page on, the other screens of its area load in the
 * background: a click then does not wait for a chunk, nor lands keystrokes in the screen being left while
 * the next one loads. Not before: a first visit downloads only what its screen needs (docs/decisions/044-fast-first-load.md), and the pointer moves well before a click.
 */
export function Preload({ pages }: { pages: ReadonlyArray<{ preload: () => Promise<unknown> }> }) {
  useEffect(() => {
    const options = { capture: true, passive: true } as const;
    const stop = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, start, options);
    };
    function start() {
      stop();
      for (const p of pages) void p.preload().catch(() => {});
    }
    for (const type of INTERACTIONS) window.addEventListener(type, start, options);
    return stop;
  }, [pages]);
  return null;
}
