import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { BLOG_ID_PATTERN, type BlogPost } from '#contract/api.js';
import { ConfigError } from '#server/config.js';
import { type BlogLog, type BlogSource, isIsoDay } from './source.js';

// Posts kept in the repository: content/blog/<id>.md, YAML front matter (title, summary, date, image,
// imageAlt) and a markdown body. They are read and checked once, at start: a post that does not pass stops
// the start with the file and the field named, because these files are reviewed and shipped with the code
// and a post that silently disappears is worse than a deploy that refuses to run (the content test in CI
// reads the same folder). The front matter is parsed by `yaml` as data only: no tags that build objects,
// no code (a JS front matter is what some front-matter libraries would evaluate).

/** Where local images are served (server/http/routes/blog.ts serves <blog folder>/images there). */
export const BLOG_IMAGES_PATH = '/blog-images/';

const LOCAL_IMAGE = /^\/blog-images\/[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.(svg|png|jpe?g|webp)$/;

/** A post file that does not pass: the start stops with this message (main.ts prints it as is). */
export class BlogContentError extends ConfigError {}

const text = (max: number) =>
  z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

const frontMatterSchema = z.object({
  title: text(200),
  summary: text(600),
  // Quoted or not: YAML 1.2 reads an unquoted 2025-01-31 as a string, an older-schema date as a Date.
  date: z
    .union([z.string(), z.date().transform((d) => d.toISOString().slice(0, 10))])
    .refine(isIsoDay, 'must be a date written YYYY-MM-DD'),
  image: z
    .string()
    .trim()
    .refine(
      (value) => LOCAL_IMAGE.test(value) || isHttpsUrl(value),
      'must be /blog-images/<file>.(svg|png|jpg|webp) or an https:// URL',
    )
    .nullish(),
  imageAlt: z.string().trim().max(300, 'is longer than 300 characters').nullish(),
});

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/** Files of the folder that are not posts: notes for writers (README.md, _draft.md, .hidden.md). */
function isPostFile(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('_') && !name.startsWith('.') && name !== 'README.md';
}

/** One file's text -> its post; throws BlogContentError naming the file and the field. */
export function parsePostFile(fileName: string, source: string): BlogPost {
  const fail = (what: string) => new BlogContentError(`Blog post ${fileName}: ${what}`);
  const id = fileName.replace(/\.md$/, '');
  if (!BLOG_ID_PATTERN.test(id)) {
    throw fail('the file name is the post id: letters, digits, - and _ only (at most 64)');
  }
  const match = FRONT_MATTER.exec(source.replace(/^\uFEFF/, ''));
  if (!match) throw fail('no front matter (the file starts with a --- line, the fields, and a --- line)');
  // Core schema: strings, numbers, booleans, null, lists and maps. A tag it does not know (!!js/function,
  // !!binary) is a warning in `yaml`; here it is a refusal, like a syntax error.
  const doc = parseDocument(match[1] ?? '', { schema: 'core', logLevel: 'silent' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    throw fail(`the front matter is not valid YAML (${problem.message.split('\n')[0]})`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 10 });
  } catch (error) {
    throw fail(`the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = frontMatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'front matter';
    const message = issue.code === 'invalid_type' ? `is missing or not ${issue.expected}` : issue.message;
    throw fail(`${field} ${message}`);
  }
  const { title, summary, date, image, imageAlt } = parsed.data;
  return {
    id,
    title,
    summary,
    date,
    image: image ? { url: image, alt: imageAlt || title } : null,
    content: (match[2] ?? '').replace(/^\s*\n/, ''),
  };
}

/**
 * Every post of the folder, checked. A missing folder is an empty blog (a deployment on Contentful, or no
 * posts yet), logged; a local image whose file is missing is logged too (the post still shows, without it).
 */
export async function loadMarkdownPosts(dir: string, log: BlogLog): Promise<BlogPost[]> {
  if (!existsSync(dir)) {
    log.warn({ dir }, 'no blog folder: the blog has no posts');
    return [];
  }
  const names = (await readdir(dir)).filter(isPostFile).sort();
  const posts: BlogPost[] = [];
  for (const name of names) {
    const post = parsePostFile(name, await readFile(path.join(dir, name), 'utf8'));
    const local = post.image?.url.startsWith(BLOG_IMAGES_PATH) ? post.image.url : null;
    if (local && !existsSync(path.join(dir, 'images', local.slice(BLOG_IMAGES_PATH.length)))) {
      log.warn({ post: name, image: local }, 'a blog post names an image that is not in the images folder');
    }
    posts.push(post);
  }
  return posts;
}

/**
 * <repository>/content/blog, found from this file's place so that it works from the sources (tsx:
 * server/features/blog/) and from the build (dist/server/features/blog/): the first folder upwards that
 * holds content/blog.
 */
export function defaultBlogDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'content', 'blog'))) return path.join(dir, 'content', 'blog');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('content', 'blog');
    dir = parent;
  }
}

export function createMarkdownSource(posts: readonly BlogPost[]): BlogSource {
  const byId = new Map(posts.map((post) => [post.id, post]));
  return {
    name: 'markdown',
    list: async () => [...posts],
    get: async (id) => byId.get(id) ?? null,
  };
}
