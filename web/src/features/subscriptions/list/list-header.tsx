import Spinner from 'react-bootstrap/Spinner';
import { PageHeader } from '../../../components/page-header';

interface ListHeaderProps {
  title: string;
  /** Something is loading or a scan runs: the spinner. */
  busy: boolean;
  /** The count under the title; null: none (the brand list has its own). */
  caption: string | null;
  /** The running scan's progress in words; empty when none. */
  progress: string;
}

/** The top of the subscription list: its title and spinner, how many senders, and the scan's progress. */
export function ListHeader({ title, busy, caption, progress }: ListHeaderProps) {
  return (
    <>
      <PageHeader
        title={title}
        status={
          busy && (
            <Spinner animation="border" size="sm" variant="primary" role="status">
              <span className="visually-hidden">Loading subscriptions…</span>
            </Spinner>
          )
        }
      />
      {caption !== null && <p className="text-muted mb-3 count-caption">{caption}</p>}
      <p className="small text-primary mb-0 scan-progress" role="status" aria-live="polite">
        {progress}
      </p>
    </>
  );
}
