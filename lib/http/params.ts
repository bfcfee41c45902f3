// Route parameters as Next.js hands them to route handlers.
export type RouteContext<P extends string> = { params: Promise<Record<P, string | string[]>> };

export async function param<P extends string>(context: RouteContext<P>, name: P): Promise<string> {
  const value = (await context.params)[name];
  return Array.isArray(value) ? value.join("/") : value;
}
