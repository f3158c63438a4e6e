// The one place that renders markdown. Raw HTML is never enabled (no rehype-raw): react-markdown shows it
// as text, so a `<script>` in a post cannot run. Link and image addresses go through react-markdown's
// default urlTransform, which keeps relative ones and http, https, irc, ircs, mailto and xmpp and empties
// every other (javascript:, data:, …); no other transform is passed on purpose.
import type { ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const components: Components = {
  // Images of the body load as they come into view and never outgrow the column (blog.css).
  // The markdown's alt text (`![alt](src)`) is the image's, empty when the author gave none. An address
  // the urlTransform emptied leaves no src at all (an empty one would fetch the page again).
  img: ({ node: _node, alt, src, ...props }: ComponentProps<'img'> & { node?: unknown }) => (
    <img {...props} src={src || undefined} alt={alt ?? ''} loading="lazy" decoding="async" />
  ),
  // A wide table scrolls on its own on a narrow screen instead of widening the page.
  table: ({ node: _node, ...props }: ComponentProps<'table'> & { node?: unknown }) => (
    <div className="blog-table-scroll">
      <table {...props} className="table table-bordered table-sm" />
    </div>
  ),
  // A task list's item is a disabled checkbox with no name of its own: its state is said in words.
  input: ({ node: _node, ...props }: ComponentProps<'input'> & { node?: unknown }) => (
    <input
      {...props}
      aria-label={props.type === 'checkbox' ? (props.checked ? 'Done' : 'To do') : undefined}
    />
  ),
};

/** A post's markdown with GitHub's extensions (tables, task lists, strikethrough, autolinks). */
export function PostBody({ markdown }: { markdown: string }) {
  return (
    <div className="blog-body">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
