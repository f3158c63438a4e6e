// Placeholder: the marketing helper replaces this file with the real page body.
export default function Terms() {
  return (
    <section className="container py-5">
      <h1>Terms of Service</h1>
    </section>
  );
}
