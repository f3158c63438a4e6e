import { describe, expect, it } from 'vitest';
import { declaredWidth, fitScale } from './fit-frame';

describe('declaredWidth', () => {
  it('reads the widest width attribute or fixed style width', () => {
    expect(declaredWidth('<table width="600"><tr><td width="300">a</td></tr></table>')).toBe(600);
    expect(declaredWidth('<div style="width: 640px; color: red">a</div><img width="120">')).toBe(640);
    expect(declaredWidth('<div style="color:red;min-width:700px">a</div>')).toBe(700);
  });

  it('ignores max-width, percentages and messages that declare nothing', () => {
    expect(declaredWidth('<div style="max-width: 600px">a</div>')).toBe(0);
    expect(declaredWidth('<table width="100%"><tr><td>a</td></tr></table>')).toBe(0);
    expect(declaredWidth('<pre>plain text, width: 600px in words</pre>')).toBe(0);
  });

  it('does not believe a huge spacer', () => {
    expect(declaredWidth('<img width="90000">')).toBe(1200);
  });
});

describe('fitScale', () => {
  it('scales down only what does not fit', () => {
    expect(fitScale(600, 300)).toBe(0.5);
    expect(fitScale(600, 760)).toBe(1);
    expect(fitScale(0, 300)).toBe(1);
    expect(fitScale(600, 0)).toBe(1);
  });
});
