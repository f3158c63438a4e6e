import { Link, useParams } from 'react-router';
import { BLOG_ID_PATTERN } from '#contract/api.js';
import { NOT_FOUND_TITLE } from '#contract/pages.js';
import { SCREENS } from '#contract/routes.js';
import { Loading } from '../../components/loading';
import NotFound from '../../components/not-found';
import { isStatus } from '../../lib/api-client';
import { useScreenTitle } from '../../lib/title';
import { formatBlogDate } from './blog-pages';
import './blog.css';
import { useBlogPost } from './api/posts';
import { PostBody } from './post-body';

/**
 * /blogDetails/:id: one post. An id no post can have, or one the server does not know (404), is the
 * not-found screen; any other failure is only logged and the screen stays empty.
 */
export default function BlogPost() {
  const id = useParams().id ?? '';
  const validId = BLOG_ID_PATTERN.test(id);
  const post = useBlogPost(id, { enabled: validId });
  const notFound = !validId || isStatus(post.error, 404);
  useScreenTitle(notFound ? NOT_FOUND_TITLE : post.data?.title);

  if (notFound) return <NotFound />;
  if (post.isPending) return <Loading label="Loading the post…" />;
  if (!post.data) return <div className="container py-5" />;

  const { title, date, image, content } = post.data;
  return (
    <article className="container py-5 blog blog-post">
      <nav aria-label="Breadcrumb" className="mb-3">
        <Link to={SCREENS.blog} className="link-secondary">
          ‹ All posts
        </Link>
      </nav>
      <header className="mb-4">
        <h1 className="blog-post-title">{title}</h1>
        <time dateTime={date} className="blog-date">
          {formatBlogDate(date)}
        </time>
      </header>
      {image && <img src={image.url} alt={image.alt || title} className="blog-post-image mb-4" />}
      <PostBody markdown={content} />
    </article>
  );
}
