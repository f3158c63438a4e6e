// Placeholder: the marketing helper replaces this file with the real page body.
export default function Landing({ onContact }: { onContact: () => void }) {
  return (
    <section className="container py-5">
      <h1>Inbox Genie</h1>
      <p>Find the newsletters in your mailboxes and keep or unsubscribe from each one.</p>
      <button type="button" className="btn btn-outline-primary" onClick={onContact}>
        Contact Us
      </button>
    </section>
  );
}
