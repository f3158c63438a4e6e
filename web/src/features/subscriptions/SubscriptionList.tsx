import { type ReactNode, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { usePublicConfig } from '../../api/publicConfig';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useLiveScan } from '../../live';
import { useEmailAccounts } from '../accounts/queries';
import type { CategoryView } from './categories';
import { useSubscriptionList } from './queries';
import { SubscriptionRow } from './SubscriptionRow';
import {
  countCaption,
  DEFAULT_SORT,
  isSortOrder,
  progressText,
  SORT_OPTIONS,
  type SortOrder,
  scanRunning,
  showsAccounts,
  visibleSubscriptions,
} from './subscriptionList';
import { useSubscriptionActions } from './useSubscriptionActions';

const NO_ITEMS: never[] = [];

/**
 * docs/product.md §2 Subscription list screen for one category, filled live as a scan finds senders (the live
 * events write into the cached list: live.ts).
 */
export function SubscriptionList({ view }: { view: CategoryView }) {
  const { category } = view;
  const publicConfig = usePublicConfig();
  const { accounts, updatedAt: accountsAt } = useEmailAccounts();
  const list = useSubscriptionList(category);
  const liveScan = useLiveScan();
  const [order, setOrder] = useState<SortOrder>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const { busyRows, keep, unsubscribe, block, dialogs } = useSubscriptionActions(category);

  const items = list.data ?? NO_ITEMS;
  /** The first answer (or failure) came. */
  const loaded = !list.isPending;
  // A mailbox being scanned, or waiting for its first scan, keeps the spinner on.
  const scanning = scanRunning(accounts, accountsAt, liveScan);
  const progress = liveScan.progress;

  const visible = useMemo(() => visibleSubscriptions(items, { order, query }), [items, order, query]);
  const showAccount = showsAccounts(items, accounts);
  const logoBaseUrl = publicConfig.status === 'ready' ? (publicConfig.config?.logoBaseUrl ?? null) : null;
  const busy = scanning || !loaded;

  let empty: ReactNode = null;
  if (loaded && items.length === 0 && !scanning) {
    if (accounts?.length === 0) empty = <EmptyState />;
    else if (accounts)
      empty = <p className="empty-state text-muted border rounded p-4 text-center">No subscriptions here.</p>;
  } else if (items.length > 0 && visible.length === 0) {
    empty = (
      <p className="empty-state text-muted border rounded p-4 text-center">
        No subscriptions match your search.
      </p>
    );
  }

  return (
    <section className="subscription-list">
      <PageHeader
        title={view.heading}
        status={
          busy && (
            <Spinner animation="border" size="sm" variant="primary" role="status">
              <span className="visually-hidden">Loading subscriptions…</span>
            </Spinner>
          )
        }
      />
      <p className="text-muted mb-3">{countCaption(items.length, view.caption)}</p>
      <p className="small text-primary mb-0 scan-progress" role="status" aria-live="polite">
        {scanning && progress ? progressText(progress) : ''}
      </p>

      <div className="list-controls d-flex flex-column flex-sm-row gap-2 mb-3">
        <Form.Select
          aria-label="Sort"
          className="list-sort"
          value={order}
          onChange={(e) => {
            if (isSortOrder(e.target.value)) setOrder(e.target.value);
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
            aria-label="Search by sender address"
            placeholder="Search by sender address"
            autoComplete="off"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <Button
            variant="outline-secondary"
            aria-label="Clear search"
            disabled={!query}
            onClick={() => setQuery('')}
          >
            <span aria-hidden="true">×</span>
          </Button>
        </InputGroup>
      </div>

      <Table hover className="subscription-table bg-white border mb-0">
        <thead>
          <tr>
            <th scope="col" className="subscription-col">
              EMAIL SUBSCRIPTIONS
            </th>
            <th scope="col" className="actions-col text-end">
              ACTIONS
            </th>
          </tr>
        </thead>
        <tbody>
          {visible.map((item) => (
            <SubscriptionRow
              key={item.id}
              item={item}
              logoBaseUrl={logoBaseUrl}
              showAccount={showAccount}
              busy={busyRows.has(item.id)}
              actions={
                <div className="d-flex flex-wrap justify-content-end gap-2">
                  {/* docs/product.md §2/§4: Keep on every list but kept, Unsubscribe on every list but unsubscribed. */}
                  {category !== 'kept' && (
                    <Button
                      size="sm"
                      variant="outline-success"
                      disabled={busyRows.has(item.id)}
                      aria-label={`Keep ${item.address}`}
                      onClick={() => void keep(item)}
                    >
                      Keep Subscription
                    </Button>
                  )}
                  {category === 'unsubscribed' && item.stillSending && (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={busyRows.has(item.id)}
                      aria-label={`Block ${item.address}`}
                      onClick={() => void block(item)}
                    >
                      Block
                    </Button>
                  )}
                  {category !== 'unsubscribed' && (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={busyRows.has(item.id)}
                      aria-label={`Unsubscribe ${item.address}`}
                      onClick={() => void unsubscribe(item)}
                    >
                      Unsubscribe
                    </Button>
                  )}
                </div>
              }
            />
          ))}
        </tbody>
      </Table>
      {empty && <div className="mt-3">{empty}</div>}
      {dialogs}
    </section>
  );
}
