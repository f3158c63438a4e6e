import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { TrashOption } from '../actions/trash-option';
import { isSortOrder, SORT_OPTIONS, type SortOrder } from './list-model';

interface ListControlsProps {
  order: SortOrder;
  onOrder: (order: SortOrder) => void;
  query: string;
  onQuery: (query: string) => void;
  /** The "also move their mail to the trash" switch; null on a list without Unsubscribe. */
  trash: { checked: boolean; onChange: (checked: boolean) => void } | null;
  /** The "Group by brand" switch (brands/brand-list.tsx). */
  grouped?: { checked: boolean; onChange: (checked: boolean) => void };
}

/** Above the list: its order, the search by name or address, and the trash switch of the unsubscribes. */
export function ListControls({ order, onOrder, query, onQuery, trash, grouped }: ListControlsProps) {
  return (
    <div className="list-controls mb-3">
      <Form.Select
        aria-label="Sort"
        className="list-sort"
        value={order}
        onChange={(e) => {
          if (isSortOrder(e.target.value)) onOrder(e.target.value);
        }}
      >
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      <InputGroup className="list-search">
        <Form.Control
          type="search"
          aria-label="Search by name or address"
          placeholder="Search by name or address"
          autoComplete="off"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
        />
        <Button
          variant="outline-secondary"
          aria-label="Clear search"
          disabled={!query}
          onClick={() => onQuery('')}
        >
          <span aria-hidden="true">×</span>
        </Button>
      </InputGroup>
      {grouped && (
        <Form.Check
          type="switch"
          id="group-by-brand"
          className="list-group-brand mb-0"
          label="Group by brand"
          checked={grouped.checked}
          onChange={(e) => grouped.onChange(e.target.checked)}
        />
      )}
      {trash && <TrashOption checked={trash.checked} onChange={trash.onChange} />}
    </div>
  );
}
