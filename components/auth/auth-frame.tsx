// The frame of the signed-out pages: a quiet backdrop, the product mark and one centred card.
import Link from "next/link";
import type { ReactNode } from "react";
import { ProductMark } from "@/components/shell/product-mark";

export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-bg-subtle">
      <header className="flex h-16 items-center px-5 sm:px-8">
        <Link
          href="/"
          className="flex items-center gap-2 rounded-lg py-1 text-sm font-semibold tracking-tight text-fg"
        >
          <ProductMark />
          Workstreams
        </Link>
      </header>
      <main className="flex flex-1 flex-col items-center px-4 pt-6 pb-16 sm:justify-center sm:pt-0">
        <div className="w-full max-w-[400px]">{children}</div>
      </main>
    </div>
  );
}

export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <>
      <section className="rounded-2xl border border-border bg-bg-elevated p-6 shadow-sm shadow-black/5 sm:p-8">
        <h1 className="text-xl font-semibold tracking-tight text-fg">{title}</h1>
        {description ? <p className="mt-1.5 text-sm text-fg-muted">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </section>
      {footer ? <div className="mt-6 text-center text-sm text-fg-muted">{footer}</div> : null}
    </>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="rounded font-medium text-accent-text underline-offset-4 hover:underline"
    >
      {children}
    </Link>
  );
}
