import ReactPaginateModule from 'react-paginate';
import { Link, useSearchParams } from 'react-router';
import type { BlogPostSummary } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { Loading } from '../../components/loading';
import { BLOG_NAME } from './blog-name';
import {
  blogPageCount,
  blogPageSlice,
  formatBlogDate,
  pageIndexFromSearch,
  searchForPageIndex,
} from './blog-pages';
import './blog.css';
import { useBlogPosts } from './api/posts';

// react-paginate ships one UMD file whose module.exports is `{ default: Component, __esModule }`; the
// production bundler hands that object to a default import, so the component is taken from it.
const ReactPaginate =
  (ReactPaginateModule as unknown as { default?: typeof ReactPaginateModule }).default ?? ReactPaginateModule;

/**
 * /blog: the posts' cards, nine a page. The page is kept in the URL (`?page=2`), so back and forward
 * move between pages. Nothing is listed until the posts arrive; a failed fetch is only logged and the
 * list stays empty.
 */
export default function BlogList() {
  const posts = useBlogPosts();
  const [search, setSearch] = useSearchParams();
  const items = posts.data?.items ?? [];
  const pageCount = blogPageCount(posts.data?.total ?? 0);
  const pageIndex = pageIndexFromSearch(search, pageCount);
  const shown = blogPageSlice(items, pageIndex);

  return (
    <div className="container py-5 blog">
      <h1 className="blog-heading text-center mb-4 mb-md-5">{BLOG_NAME}</h1>
      {posts.isPending && <Loading label="Loading posts…" />}
      {posts.isSuccess && items.length === 0 && <p className="text-center text-muted">No posts yet.</p>}
      {shown.length > 0 && (
        <ul className="row g-4 list-unstyled mb-0">
          {shown.map((post) => (
            <li key={post.id} className="col-12 col-md-6 col-lg-4">
              <BlogCard post={post} />
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 && (
        // react-paginate's list is the navigation landmark itself (role and label).
        <div className="mt-5">
          <ReactPaginate
            pageCount={pageCount}
            forcePage={pageIndex}
            onPageChange={({ selected }) => setSearch(searchForPageIndex(selected, search))}
            hrefBuilder={(page) => {
              const query = searchForPageIndex(page - 1, search).toString();
              return query ? `${SCREENS.blog}?${query}` : SCREENS.blog;
            }}
            previousLabel="<"
            nextLabel=">"
            breakLabel="..."
            previousAriaLabel="Previous page"
            nextAriaLabel="Next page"
            marginPagesDisplayed={2}
            pageRangeDisplayed={5}
            containerClassName="pagination justify-content-center flex-wrap mb-0"
            pageClassName="page-item"
            pageLinkClassName="page-link"
            previousClassName="page-item"
            previousLinkClassName="page-link"
            nextClassName="page-item"
            nextLinkClassName="page-link"
            breakClassName="page-item"
            breakLinkClassName="page-link"
            activeClassName="active"
            disabledClassName="disabled"
          />
        </div>
      )}
    </div>
  );
}

function BlogCard({ post }: { post: BlogPostSummary }) {
  return (
    <Link to={SCREENS.blogPost(post.id)} className="card h-100 blog-card">
      {post.image ? (
        <img src={post.image.url} alt={post.title} className="card-img-top blog-card-image" loading="lazy" />
      ) : (
        <div className="card-img-top blog-card-image blog-card-image-none" aria-hidden="true" />
      )}
      <div className="card-body">
        <time dateTime={post.date} className="blog-date">
          {formatBlogDate(post.date)}
        </time>
        <h2 className="h5 card-title mt-2">{post.title}</h2>
        <p className="card-text text-body-secondary mb-0">{post.summary}</p>
      </div>
    </Link>
  );
}
