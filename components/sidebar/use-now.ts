"use client";
import { useEffect, useState } from "react";

/**
 * The clock for "last active" times, ticking every minute. Null until mounted: the server's
 * clock and time zone are not the browser's, so relative times are rendered on the client only.
 */
export function useNow(intervalMs = 60_000): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
