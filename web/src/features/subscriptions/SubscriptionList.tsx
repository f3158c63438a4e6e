import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useNavigate } from 'react-router';
import type { Subscription } from '../../../../contract/api.js';
import { SCREENS } from '../../../../contract/routes.js';
import { getSubscriptions } from '../../api/calls';
import { isStatus, redirectUrlOf } from '../../api/client';
import { usePublicConfig } from '../../api/publicConfig';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { type ScanProgress, useLive } from '../../live';
import { useEmailAccounts } from '../accounts/useEmailAccounts';
import type { CategoryView } from './categories';
import { SubscriptionRow } from './SubscriptionRow';
import {
  countCaption,
  DEFAULT_SORT,
  isScanning,
  isSortOrder,
  mergeLiveSubscription,
  mergeLiveSubscriptions,
  progressText,
  SORT_OPTIONS,
  type SortOrder,
  showsAccounts,
  visibleSubscriptions,
} from './subscriptionList';
import { useSubscriptionActions } from './useSubscriptionActions';

/** SPEC §2 Subscription list screen for one category, filled live as a scan finds senders. */
export function SubscriptionList({ view }: { view: CategoryView }) {
  const { category } = view;
  const navigate = useNavigate();
  const publicConfig = usePublicConfig();
  const { accounts, reload: reloadAccounts } = useEmailAccounts();
  const [items, setItems] = useState<Subscription[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [fetching, setFetching] = useState(true);
  const [scanning, setScanning] = useState(false);
  const [progress, setProgress] = useState<ScanProgress | null>(null);
  const [order, setOrder] = useState<SortOrder>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const removeItem = useCallback((id: string) => {
    // After an action the item leaves the current list (SPEC §4).
    setItems((current) => current.filter((s) => s.id !== id));
  }, []);
  const changeItem = useCallback(
    (updated: Subscription) => {
      // A blocked sender moves to Unsubscribed: updated in place there, gone from the other lists.
      setItems((current) =>
        updated.category === category
          ? current.map((s) => (s.id === updated.id ? updated : s))
          : current.filter((s) => s.id !== updated.id),
      );
    },
    [category],
  );
  const { busyRows, keep, unsubscribe, block, dialogs } = useSubscriptionActions(removeItem, changeItem);

  const latest = useRef(0);
  const mounted = useRef(true);
  /** Live items that arrived while a fetch was on its way: its answer may predate them. */
  const arrivedDuringFetch = useRef<Subscription[]>([]);

  const loadList = useCallback(async () => {
    const call = ++latest.current;
    arrivedDuringFetch.current = [];
    setFetching(true);
    try {
      const answer = await getSubscriptions(category);
      if (!mounted.current || call !== latest.current) return;
      setItems(mergeLiveSubscriptions(answer?.data ?? [], arrivedDuringFetch.current, category));
    } catch (error) {
      if (!mounted.current || call !== latest.current) return;
      // SPEC §8: a mailbox that needs re-authentication answers 401 with where to go.
      const redirectUrl = isStatus(error, 401) ? redirectUrlOf(error) : null;
      if (redirectUrl) {
        window.location.assign(redirectUrl);
        return;
      }
      if (isStatus(error, 403)) {
        navigate(SCREENS.signin, { replace: true });
        return;
      }
      console.warn('Failed to fetch subscriptions...', error);
    } finally {
      if (mounted.current && call === latest.current) {
        arrivedDuringFetch.current = [];
        setFetching(false);
        setLoaded(true);
      }
    }
  }, [category, navigate]);

  useEffect(() => {
    mounted.current = true;
    void loadList();
    return () => {
      mounted.current = false;
    };
  }, [loadList]);

  // A mailbox being scanned, or waiting for its first scan, keeps the spinner on.
  useEffect(() => {
    if (accounts) setScanning(accounts.some(isScanning));
  }, [accounts]);

  useLive({
    // Events sent before this connection were missed: catch up.
    connect: () => {
      void loadList();
      void reloadAccounts();
    },
    'loading-new-subscriptions': () => setScanning(true),
    'new-subscription': (item) => {
      arrivedDuringFetch.current.push(item);
      setItems((current) => mergeLiveSubscription(current, item, category));
    },
    'scan-progress': (next) => {
      setScanning(true);
      setProgress(next);
    },
    'all-subscriptions-sent': () => {
      setScanning(false);
      setProgress(null);
      // Counts may have changed; another mailbox may still be scanning.
      void loadList();
      void reloadAccounts();
    },
  });

  const visible = useMemo(() => visibleSubscriptions(items, { order, query }), [items, order, query]);
  const showAccount = showsAccounts(items, accounts);
  const logoBaseUrl = publicConfig.status === 'ready' ? (publicConfig.config?.logoBaseUrl ?? null) : null;
  const busy = scanning || (fetching && !loaded);

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
                  {/* SPEC §2/§4: Keep on every list but kept, Unsubscribe on every list but unsubscribed. */}
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
