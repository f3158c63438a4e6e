import { type CSSProperties, useLayoutEffect, useRef, useState } from 'react';

// A newsletter laid out for a 600 px column is cut off on a 375 px phone. The frame is sandboxed without
// scripts and without the page's origin, so this page cannot measure the message inside it: it reads the
// widest fixed width the (sanitized) HTML declares instead, lays the frame out that wide and scales it down
// to the room there is, as mail apps do. A message that declares no width is responsive (or plain text):
// it is left at the frame's own width, unscaled.

/** The preview document's body keeps the browser's default margin, 8 px on either side of the message. */
const BODY_MARGINS = 16;
/** Declared widths beyond this are not believed (a stray 5000 px spacer would shrink the mail to nothing). */
const WIDEST = 1200;
/** An opening tag; its width attribute (`width="600"`); its style attribute; a fixed width in a style. */
const TAG = /<[a-z][^>]*>/gi;
const WIDTH_ATTRIBUTE = /\swidth\s*=\s*["']?(\d{2,5})(?:px)?(?=["'\s/>])/i;
const STYLE_ATTRIBUTE = /\sstyle\s*=\s*"([^"]*)"/i;
const STYLE_WIDTH = /(?:^|;)\s*(?:min-)?width\s*:\s*(\d{2,5})(?:\.\d+)?px/gi;

/** The widest fixed width the HTML's tags declare, in CSS pixels; 0 when they declare none. */
export function declaredWidth(html: string): number {
  let widest = 0;
  for (const [tag] of html.matchAll(TAG)) {
    const attribute = WIDTH_ATTRIBUTE.exec(tag);
    if (attribute) widest = Math.max(widest, Number(attribute[1]));
    const style = STYLE_ATTRIBUTE.exec(tag)?.[1];
    if (style) for (const match of style.matchAll(STYLE_WIDTH)) widest = Math.max(widest, Number(match[1]));
  }
  return Math.min(widest, WIDEST);
}

/** The scale that fits `natural` px into `room` px: 1 when it fits already (or nothing is known). */
export function fitScale(natural: number, room: number): number {
  return natural > 0 && room > 0 && natural > room ? room / natural : 1;
}

/**
 * The frame's box (`boxRef`, its width watched) and the frame's style: laid out at the message's declared
 * width and scaled to the box, its height grown so that the scaled frame still fills the box.
 */
export function useFittedFrame(html: string | null): {
  boxRef: React.RefObject<HTMLDivElement | null>;
  frameStyle: CSSProperties | undefined;
  scale: number;
} {
  const boxRef = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(0);
  const shown = html !== null;
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!shown || !box) return;
    setRoom(box.clientWidth);
    const observer = new ResizeObserver(() => setRoom(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, [shown]);
  const declared = html === null ? 0 : declaredWidth(html);
  const natural = declared > 0 ? declared + BODY_MARGINS : 0;
  const scale = fitScale(natural, room);
  if (scale === 1) return { boxRef, frameStyle: undefined, scale };
  return {
    boxRef,
    scale,
    frameStyle: {
      width: natural,
      height: `calc(var(--preview-height) / ${scale})`,
      transform: `scale(${scale})`,
      transformOrigin: '0 0',
    },
  };
}
