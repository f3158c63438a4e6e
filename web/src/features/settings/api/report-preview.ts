import { useQuery } from '@tanstack/react-query';
import { reportPreviewSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** The user's weekly report as it would be sent now, and when reports go out (GET /report/preview). */
export const getReportPreview = () => api.get(API.reportPreview, reportPreviewSchema);

export const REPORT_PREVIEW_KEY = [...USER_KEY, 'report-preview'] as const;

export const useReportPreview = () =>
  useQuery({
    queryKey: REPORT_PREVIEW_KEY,
    queryFn: getReportPreview,
    // The schedule moves once a week; the content with the user's mail, which the preview reads again.
    staleTime: 60_000,
    meta: { errorMessage: 'Failed to fetch the weekly report preview.' },
  });
