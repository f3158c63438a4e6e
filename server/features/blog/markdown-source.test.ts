import { describe, expect, it } from 'vitest';
import { BlogContentError, parsePostFile } from './markdown-source.js';

const file = (front: string, body = 'Body\n') => `---\n${front}\n---\n${body}`;
const GOOD = 'title: A title\nsummary: A summary\ndate: 2025-01-31';

function problem(name: string, source: string): string {
  try {
    parsePostFile(name, source);
  } catch (error) {
    expect(error).toBeInstanceOf(BlogContentError);
    return (error as Error).message;
  }
  throw new Error('expected a BlogContentError');
}

describe('markdown posts', () => {
  it('reads the front matter and the body; the file name is the id; the title is the default alt', () => {
    expect(parsePostFile('a-post.md', file(`${GOOD}\nimage: /blog-images/a.svg`, '\n# Hello\n'))).toEqual({
      id: 'a-post',
      title: 'A title',
      summary: 'A summary',
      date: '2025-01-31',
      image: { url: '/blog-images/a.svg', alt: 'A title' },
      content: '# Hello\n',
    });
    const withAlt = parsePostFile(
      'b.md',
      `\uFEFF${file(`${GOOD}\nimage: https://cdn.example/x.png\nimageAlt: Alt`)}`,
    );
    expect(withAlt.image).toEqual({ url: 'https://cdn.example/x.png', alt: 'Alt' });
    expect(parsePostFile('c.md', file(GOOD.replace('2025-01-31', '"2025-01-31"'))).date).toBe('2025-01-31');
    expect(parsePostFile('d.md', file(GOOD)).image).toBeNull();
  });

  it('names the file and the field that do not pass', () => {
    expect(problem('x.md', file('summary: s\ndate: 2025-01-31'))).toBe(
      'Blog post x.md: title is missing or not string',
    );
    expect(problem('x.md', file('title: ""\nsummary: s\ndate: 2025-01-31'))).toBe(
      'Blog post x.md: title is empty',
    );
    expect(problem('x.md', file('title: t\nsummary: s\ndate: 2025-02-30'))).toBe(
      'Blog post x.md: date must be a date written YYYY-MM-DD',
    );
    expect(problem('x.md', file(`${GOOD}\nimage: http://insecure.example/a.png`))).toMatch(
      /^Blog post x\.md: image must be/,
    );
    expect(problem('x.md', file(`${GOOD}\nimage: /blog-images/../secret.svg`))).toMatch(
      /^Blog post x\.md: image/,
    );
    expect(problem('x.md', 'no front matter')).toMatch(/^Blog post x\.md: no front matter/);
    expect(problem('bad name.md', file(GOOD))).toMatch(
      /^Blog post bad name\.md: the file name is the post id/,
    );
    expect(problem('x.md', file('title: [unclosed'))).toMatch(
      /^Blog post x\.md: the front matter is not valid YAML/,
    );
  });

  it('reads front matter as data only: no code, no custom tags', () => {
    // What a "---js" front matter would run elsewhere is here just not YAML of a post.
    expect(() => parsePostFile('x.md', '---js\n{ title: require("fs") }\n---\n')).toThrow(BlogContentError);
    expect(problem('x.md', file(`${GOOD}\nextra: !!js/function "function () {}"`))).toMatch(
      /^Blog post x\.md: the front matter is not valid YAML \(Unresolved tag/,
    );
    expect(() => parsePostFile('x.md', file('title: !!binary aGk=\nsummary: s\ndate: 2025-01-31'))).toThrow(
      BlogContentError,
    );
  });
});
