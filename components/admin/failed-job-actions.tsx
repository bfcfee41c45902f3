"use client";
// One failed job's hand: Retry runs it again once (it leaves the list; failing again lists it
// anew), Discard removes it after a confirmation. Both refresh the list from the server.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { ApiError, callApi } from "@/lib/api-client/call-api";

export function FailedJobActions({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const confirm = useConfirm();
  const [retrying, setRetrying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/admin/jobs/${encodeURIComponent(id)}`;

  const retry = async () => {
    setRetrying(true);
    setError(null);
    try {
      await callApi(`${path}/retry`, { method: "POST" });
      router.refresh();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "Something went wrong. Try again.");
    } finally {
      setRetrying(false);
    }
  };

  const discard = () =>
    confirm.ask({
      title: `Discard this failed ${name} job?`,
      body: "It leaves the list and will not be run again. The turns it followed are not affected.",
      confirmLabel: "Discard job",
      tone: "danger",
      onConfirm: async () => {
        await callApi(path, { method: "DELETE" });
        router.refresh();
      },
    });

  return (
    <div className="flex flex-col gap-1">
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" pending={retrying} onClick={retry}>
          Retry
        </Button>
        <Button variant="ghost" size="sm" onClick={discard}>
          Discard
        </Button>
      </div>
      <FormAlert>{error}</FormAlert>
      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
