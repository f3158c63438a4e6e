import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { noticeState } from '../../components/notice';
import { failureText, isStatus } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useDeleteAccount } from './api/delete-account';

/**
 * Settings' last section: Delete Account, asked first (Confirm Account Deletion). A failure says why in the
 * dialog, which stays open: Delete again is the retry (docs/decisions/098-failures-say-why.md).
 */
export function DeleteAccount() {
  const navigate = useNavigate();
  const { signedOut } = useSession();
  const deletion = useDeleteAccount();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  // The session is dropped once this screen has gone (the home page is shown): the router's navigation
  // is a transition, and a session dropped before it would let the signed-in area's session gate render
  // first and send the visitor to the sign-in page, without the home page's message.
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (deleted.current) signedOut();
    },
    [signedOut],
  );

  async function removeAccount() {
    setDeleteFailure(null);
    try {
      await deletion.mutateAsync();
    } catch (error) {
      // 403 and 402 are the query client's (sign-in, pricing).
      if (isStatus(error, 403) || isStatus(error, 402)) setConfirmDelete(false);
      else setDeleteFailure(failureText(ALERTS.deleteAccountFailed, error));
      return;
    }
    deleted.current = true;
    navigate(SCREENS.home, { replace: true, state: noticeState('accountDeleted') });
  }

  return (
    <>
      <h2 className="h5">Delete your account</h2>
      <p className="text-muted">
        Deleting your account removes your connected mailboxes and everything we stored about them.
      </p>
      <Button
        variant="outline-danger"
        onClick={() => {
          setDeleteFailure(null);
          setConfirmDelete(true);
        }}
      >
        Delete Account
      </Button>
      <ConfirmDialog
        show={confirmDelete}
        title="Confirm Account Deletion"
        confirmLabel="Delete"
        danger
        busy={deletion.isPending || deletion.isSuccess}
        onConfirm={removeAccount}
        onCancel={() => setConfirmDelete(false)}
      >
        This permanently deletes your account, your connected mailboxes and everything we stored about them.
        This cannot be undone.
        {deleteFailure && (
          <p className="text-danger mt-3 mb-0" role="alert">
            {deleteFailure}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
