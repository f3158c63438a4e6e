import { useId } from 'react';
import Form from 'react-bootstrap/Form';

/** The "Also move existing mail to Trash" option of Unsubscribe (one row or many; off by default). */
export function TrashOption({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <Form.Check
      type="checkbox"
      id={id}
      className="trash-option mb-0"
      label="Also move existing mail to Trash"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}
