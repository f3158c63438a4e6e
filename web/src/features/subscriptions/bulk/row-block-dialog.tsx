import type { Subscription } from '#contract/api.js';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { bulkBlockText, bulkQuestion } from './bulk-view';

interface RowBlockDialogProps {
  item: Subscription;
  show: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The question before a row's Block: the bulk Block's own words for one sender, and how many messages move. */
export default function RowBlockDialog({ item, show, onConfirm, onCancel }: RowBlockDialogProps) {
  return (
    <ConfirmDialog
      show={show}
      title={bulkQuestion('block', 1)}
      confirmLabel="Block"
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p className="mb-0">
        <span className="fw-semibold text-break">{item.address}</span>: {bulkBlockText(item.messageCount)}
      </p>
    </ConfirmDialog>
  );
}
