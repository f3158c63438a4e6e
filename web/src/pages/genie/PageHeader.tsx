import type { ReactNode } from 'react';

/** The heading row of a signed-in screen, with room for actions beside the title. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-3">
      <h1 className="h3 mb-0">{title}</h1>
      {children}
    </div>
  );
}
