import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { NOTICES, type NoticeId, noticeOf } from './notice';

/**
 * The one-time message the previous screen left in the router state (notice.ts), above the page. The
 * state is cleared at once, so a reload or a return through history does not bring it back; the
 * message stays until the visitor leaves the page or closes it.
 */
export function RouteNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const arriving = noticeOf(location.state);
  const [shown, setShown] = useState<{ id: NoticeId; pathname: string } | null>(null);
  if (shown && shown.pathname !== location.pathname) setShown(null);

  const { pathname, search, hash } = location;
  useEffect(() => {
    if (!arriving) return;
    setShown({ id: arriving, pathname });
    navigate({ pathname, search, hash }, { replace: true, state: null });
  }, [arriving, pathname, search, hash, navigate]);

  const id = arriving ?? (shown?.pathname === pathname ? shown.id : null);
  if (!id) return null;
  return (
    <div className="container pt-4">
      {/* Bootstrap's alert markup: this is on every public page, and react-bootstrap's Alert brings its
          transitions into the entry chunk (docs/decisions/044-fast-first-load.md). */}
      <div className="alert alert-success alert-dismissible mb-0" role="status">
        {NOTICES[id]}
        <button type="button" className="btn-close" aria-label="Close alert" onClick={() => setShown(null)} />
      </div>
    </div>
  );
}
