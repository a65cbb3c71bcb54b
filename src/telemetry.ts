/**
 * The hook for an error-reporting service: it is told who the current user is once the user is
 * fetched. Telemetry, not product behaviour; nothing is sent anywhere until a service is wired in.
 */
export interface ReportedUser {
  id: number;
  email: string;
}

export function reportUser(_user: ReportedUser | null): void {
  // Intentionally empty: no error-reporting service is configured.
}
