import type { ReactNode } from 'react';
import { Col, Container, Row } from 'react-bootstrap';
import '../../styles/marketing.css';

export interface PolicySection {
  id: string;
  title: string;
  body: ReactNode;
}

/** The layout of the policy texts (/privacy, /terms): title, effective date, contents, numbered sections. */
export function PolicyPage({ title, sections }: { title: string; sections: PolicySection[] }) {
  return (
    <div className="mk-page">
      <header className="mk-doc-header py-5">
        <Container>
          <span className="mk-eyebrow">Legal</span>
          <h1 className="mk-display mb-2">{title}</h1>
          <p className="text-body-secondary mb-0">Effective date: January 20, 2024</p>
        </Container>
      </header>
      <Container className="py-5">
        <Row className="g-4 g-lg-5">
          <Col lg={3} className="d-none d-lg-block">
            <nav className="mk-toc" aria-label={`${title} sections`}>
              <p className="fw-semibold mb-2">On this page</p>
              <ol>
                {sections.map((section) => (
                  <li key={section.id}>
                    <a href={`#${section.id}`}>{section.title}</a>
                  </li>
                ))}
              </ol>
            </nav>
          </Col>
          <Col lg={9} xl={8}>
            <article className="mk-prose">
              {sections.map((section, index) => (
                <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
                  <h2 id={`${section.id}-title`}>
                    {index + 1}. {section.title}
                  </h2>
                  {section.body}
                </section>
              ))}
            </article>
          </Col>
        </Row>
      </Container>
    </div>
  );
}
