import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  /** Shown right after the title, outside the heading (e.g. a loading spinner). */
  status?: ReactNode;
  /** Actions beside the title. */
  children?: ReactNode;
}

/** The heading row of a signed-in screen, with room for actions beside the title. */
export function PageHeader({ title, status, children }: PageHeaderProps) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-3">
      <div className="d-flex align-items-center gap-2">
        <h1 className="h3 mb-0">{title}</h1>
        {status}
      </div>
      {children}
    </div>
  );
}
