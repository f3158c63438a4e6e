import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ReportPreview } from '#contract/api.js';
import { messageOf } from '../../lib/api-client';
import { useReportPreview } from './api/report-preview';

// What the weekly report switch says of itself (docs/decisions/102-settings-that-say-what-they-do.md): when
// the report arrives, in the user's own clock (the server's schedule, Monday 00:00 UTC, read in this
// browser's time zone), whether it can be sent, and a preview of the user's own report.

/** "Monday at 01:00 (Europe/Berlin)": when reports go out, in this browser's time zone. */
export function scheduleInWords(
  nextSendAt: string,
  timeZone?: string,
): { weekday: string; time: string; zone: string } {
  const at = new Date(nextSendAt);
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: zone }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).format(at);
  return { weekday, time, zone };
}

/** "Monday 30 November": the next report's day, in this browser's time zone. */
const dayOf = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));

function ScheduleText({ preview, on }: { preview: ReportPreview; on: boolean }) {
  const { weekday, time, zone } = scheduleInWords(preview.nextSendAt);
  const when = `every ${weekday} at ${time} your time (${zone}), about the week before`;
  return (
    <>
      {on ? `Arrives ${when}. The next one: ${dayOf(preview.nextSendAt)}.` : `When on, it arrives ${when}.`}
      {!preview.proven && ' It is sent only to a confirmed address: open the link we mailed to yours first.'}
    </>
  );
}

/** Under the weekly report switch: when it arrives, and "Preview the report". */
export function WeeklyReportDetails({ on }: { on: boolean }) {
  const preview = useReportPreview();
  const [open, setOpen] = useState(false);
  return (
    <div className="form-text ms-5 mt-n2 mb-3 weekly-report-details" id="weekly-report-details">
      {preview.data ? (
        <ScheduleText preview={preview.data} on={on} />
      ) : preview.isError ? (
        messageOf(preview.error, 'When the report arrives could not be read. Please reload the page.')
      ) : (
        'Reading when the report arrives…'
      )}{' '}
      <Button
        variant="link"
        size="sm"
        className="p-0 align-baseline"
        disabled={!preview.data}
        onClick={() => setOpen(true)}
      >
        Preview the report
      </Button>
      {preview.data && (
        <ReportPreviewDialog preview={preview.data} show={open} onClose={() => setOpen(false)} />
      )}
    </div>
  );
}

function ReportPreviewDialog({
  preview,
  show,
  onClose,
}: {
  preview: ReportPreview;
  show: boolean;
  onClose: () => void;
}) {
  return (
    <Modal show={show} onHide={onClose} size="lg" fullscreen="sm-down" aria-labelledby="report-preview-title">
      <Modal.Header closeButton>
        <Modal.Title id="report-preview-title" className="h5">
          Your weekly report, as it would arrive now
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary mb-2">
          Subject: <strong>{preview.subject}</strong>. A preview only: nothing was sent.
        </p>
        {/* The report's own HTML (senders' names escaped by the server), with no scripts and no navigation. */}
        <iframe
          title="Weekly report preview"
          className="report-preview-frame w-100 border rounded"
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={preview.html}
          style={{ height: '70vh' }}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
