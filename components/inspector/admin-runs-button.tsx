"use client";
// The admin console's way into a workstream's turns: a "Runs" button that opens them in a sheet
// (loaded on first use).
import { ActivityIcon } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

const AdminRunsSheet = lazy(() =>
  import("./admin-runs-sheet").then((module) => ({ default: module.AdminRunsSheet })),
);

export function AdminRunsButton({ workstream }: { workstream: { id: string; title: string } }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="sm"
        aria-label={`Runs of ${workstream.title}`}
        aria-haspopup="dialog"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <ActivityIcon className="size-3.5" aria-hidden="true" />
        Runs
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <AdminRunsSheet
            open={open}
            onOpenChange={setOpen}
            workstream={workstream}
            returnFocus={button}
          />
        </Suspense>
      ) : null}
    </>
  );
}
