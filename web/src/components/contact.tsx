// Opens the Contact Us dialog from anywhere, optionally with a prefilled subject and message.
import {
  type ComponentType,
  createContext,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';

export interface ContactPrefill {
  subject?: string;
  message?: string;
}

type OpenContact = (prefill?: ContactPrefill) => void;

const ContactContext = createContext<OpenContact | null>(null);

/** The link target of every Contact Us link, so "open in new tab" still lands on the dialog. */
const CONTACT_HASH = '#contact';

/** The dialog itself, which the app passes in (features/contact), loaded when first opened. */
export type ContactDialogComponent = ComponentType<{ prefill: ContactPrefill; onClose: () => void }>;

export function ContactProvider({
  children,
  dialog: ContactDialog,
}: {
  children: ReactNode;
  dialog: ContactDialogComponent;
}) {
  const [prefill, setPrefill] = useState<ContactPrefill | null>(null);
  const open = useCallback<OpenContact>((next) => setPrefill(next ?? {}), []);
  const close = useCallback(() => setPrefill(null), []);

  useEffect(() => {
    if (window.location.hash === CONTACT_HASH) open();
  }, [open]);

  const value = useMemo(() => open, [open]);
  return (
    <ContactContext.Provider value={value}>
      {children}
      {prefill && (
        <Suspense fallback={null}>
          <ContactDialog prefill={prefill} onClose={close} />
        </Suspense>
      )}
    </ContactContext.Provider>
  );
}

export function useContact(): OpenContact {
  const open = useContext(ContactContext);
  if (!open) throw new Error('useContact needs a ContactProvider');
  return open;
}

interface ContactLinkProps {
  children: ReactNode;
  className?: string;
  prefill?: ContactPrefill;
}

/** A link that opens the contact dialog instead of navigating. */
export function ContactLink({ children, className, prefill }: ContactLinkProps) {
  const open = useContact();
  return (
    <a
      href={CONTACT_HASH}
      className={className}
      onClick={(event) => {
        event.preventDefault();
        open(prefill);
      }}
    >
      {children}
    </a>
  );
}
