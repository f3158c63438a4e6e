import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { SubscriptionMessage } from '#contract/api.js';
import { getMessagePreview } from '../api/message-preview';
import { formatDate } from '../list/row-receipt';
import { useFittedFrame } from './fit-frame';
import { isEmptyPreview, PREVIEW_NOT_FOUND, previewFailure } from './preview-answer';

interface MessagePreviewProps {
  subscriptionId: string;
  message: SubscriptionMessage;
  /** Who sent it, for the preview's header. */
  sender: { name: string; address: string };
  /** The row's Keep and Unsubscribe, offered in the preview's header (none where the list has none). */
  onKeep?: () => void;
  onUnsubscribe?: () => void;
}

/**
 * The sandbox of the preview frame: links may open a new tab, nothing else. Never `allow-scripts`
 * nor `allow-same-origin`: the HTML is sanitized on the server, and the frame is the second wall.
 */
const SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/**
 * A click inside the message moves the keyboard into the frame, whose keys never reach this page (it
 * is sandboxed, without scripts): Escape would no longer close the preview. Focus comes back to the
 * modal as soon as the page loses it to the frame (and, as the blur may come before the frame has the
 * focus, on a short watch while the preview is open); the click itself (a link) still lands in the frame.
 */
function useFocusKeptFromFrame(show: boolean, frameRef: RefObject<HTMLIFrameElement | null>) {
  useEffect(() => {
    if (!show) return;
    function reclaim() {
      const frame = frameRef.current;
      if (frame && document.activeElement === frame) frame.closest<HTMLElement>('.modal')?.focus();
    }
    // The blur comes as the click starts, the frame has the focus a moment later: look a few times.
    function onBlur() {
      for (const ms of [0, 30, 100]) setTimeout(reclaim, ms);
    }
    window.addEventListener('blur', onBlur);
    const watch = setInterval(reclaim, 250);
    return () => {
      window.removeEventListener('blur', onBlur);
      clearInterval(watch);
    };
  }, [show, frameRef]);
}

/** What the preview says instead of (or above) the message, and whether Retry loads it (with `images`) again. */
interface PreviewNote {
  text: string;
  retry: boolean;
  images: boolean;
}

/**
 * The preview's state: `open` shows the modal and fetches the sanitized HTML, `load(true)` fetches it again
 * with the remote images, `close` hides it. A failure shows in the modal as soon as its answer arrives
 * (docs/decisions/098-failures-say-why.md). Answers of an earlier opening (or of a closed modal) are dropped.
 */
function usePreview({ subscriptionId, message }: Pick<MessagePreviewProps, 'subscriptionId' | 'message'>) {
  const [show, setShow] = useState(false);
  const [html, setHtml] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [imagesLoaded, setImagesLoaded] = useState(false);
  const [note, setNote] = useState<PreviewNote | null>(null);
  const generation = useRef(0);

  async function load(loadImages: boolean) {
    const mine = ++generation.current;
    setLoading(true);
    setNote(null);
    try {
      const answer = await getMessagePreview({ subscriptionId, messageId: message.id, loadImages });
      if (mine !== generation.current) return;
      if (isEmptyPreview(answer)) {
        // docs/product.md §5: nothing to show; said in words rather than a modal that closes by itself.
        if (!loadImages) setNote({ text: PREVIEW_NOT_FOUND, retry: false, images: false });
        return;
      }
      setHtml(answer);
      if (loadImages) setImagesLoaded(true);
    } catch (error) {
      if (mine !== generation.current) return;
      const failure = previewFailure(error);
      if (failure.kind === 'redirect') return window.location.assign(failure.url);
      if (failure.kind === 'not-found')
        return setNote({ text: PREVIEW_NOT_FOUND, retry: false, images: false });
      console.warn('Failed to fetch the message preview...', error);
      setNote({ text: failure.text, retry: true, images: loadImages });
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }

  function open() {
    setHtml(null);
    setNote(null);
    setImagesLoaded(false);
    setShow(true);
    void load(false);
  }

  function close() {
    generation.current += 1;
    setShow(false);
    setLoading(false);
  }

  return { show, html, setHtml, loading, imagesLoaded, note, load, open, close };
}

/**
 * The Read button of one message and its preview modal (docs/product.md §2): the modal shows a loader until
 * the sanitized HTML arrives, then the HTML in a sandboxed frame. Remote images stay placeholders
 * until the user asks for them with 'Load images'.
 */
export function MessagePreview(props: MessagePreviewProps) {
  const titleId = useId();
  const subject = props.message.subject || '(no subject)';
  const { show, html, setHtml, loading, imagesLoaded, note, load, open, close } = usePreview(props);
  const frameRef = useRef<HTMLIFrameElement>(null);
  useFocusKeptFromFrame(show, frameRef);
  const { boxRef, frameStyle } = useFittedFrame(html);
  const date = formatDate(props.message.date);
  /** An action from the header: the preview closes first (the row may leave the list). */
  const act = (run: () => void) => () => {
    close();
    run();
  };

  return (
    <>
      <Button
        variant="outline-primary"
        size="sm"
        className="subscription-read flex-shrink-0"
        aria-label={`Read ${subject}`}
        onClick={open}
      >
        Read
      </Button>
      <Modal
        show={show}
        onHide={close}
        onExited={() => setHtml(null)}
        size="lg"
        fullscreen="sm-down"
        centered
        aria-labelledby={titleId}
        className="message-preview-modal"
      >
        <Modal.Header closeButton className="align-items-start">
          <PreviewHeading titleId={titleId} subject={subject} date={date} {...props} act={act} />
        </Modal.Header>
        <Modal.Body className="p-0 message-preview-body">
          {note && (
            <div
              className={`alert alert-${note.retry ? 'danger' : 'secondary'} m-3 d-flex flex-wrap align-items-center gap-2`}
            >
              <span role="alert" className="flex-grow-1">
                {note.text}
              </span>
              {note.retry && (
                <Button variant="outline-danger" size="sm" onClick={() => void load(note.images)}>
                  Retry
                </Button>
              )}
            </div>
          )}
          {html !== null && (
            // Scaled to the room there is when the message is laid out wider (fit-frame.ts).
            <div ref={boxRef} className="message-preview-fit">
              <iframe
                ref={frameRef}
                title="Message preview"
                className="message-preview-frame"
                style={frameStyle}
                sandbox={SANDBOX}
                referrerPolicy="no-referrer"
                srcDoc={html}
              />
            </div>
          )}
          {loading && (
            <div className="message-preview-loader">
              <Spinner animation="border" role="status">
                <span className="visually-hidden">Loading preview…</span>
              </Spinner>
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          {!imagesLoaded && (html !== null || note === null) && (
            <Button
              variant="outline-secondary"
              onClick={() => void load(true)}
              disabled={loading || html === null}
            >
              Load images
            </Button>
          )}
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

/** The preview's header: the subject, who sent it and when, and the row's Keep Subscription and Unsubscribe. */
function PreviewHeading({
  titleId,
  subject,
  date,
  sender,
  onKeep,
  onUnsubscribe,
  act,
}: MessagePreviewProps & {
  titleId: string;
  subject: string;
  date: string | null;
  act: (run: () => void) => () => void;
}) {
  return (
    <div className="min-w-0 flex-grow-1">
      <Modal.Title as="h2" id={titleId} className="h5 text-break mb-1">
        {subject}
      </Modal.Title>
      <p className="small text-muted text-break mb-0 message-preview-from">
        <span className="fw-semibold text-body">{sender.name}</span> {sender.address}
        {date && <> · {date}</>}
      </p>
      {(onKeep || onUnsubscribe) && (
        <div className="d-flex flex-wrap gap-2 mt-2 message-preview-actions">
          {onKeep && (
            <Button size="sm" variant="outline-success" onClick={act(onKeep)}>
              Keep Subscription<span className="visually-hidden"> {sender.address}</span>
            </Button>
          )}
          {onUnsubscribe && (
            <Button size="sm" variant="outline-danger" onClick={act(onUnsubscribe)}>
              Unsubscribe<span className="visually-hidden"> {sender.address}</span>
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
