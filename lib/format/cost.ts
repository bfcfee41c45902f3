// The one way a cost in US dollars is written, in the chat and the admin console alike: cents for
// ordinary amounts, two significant digits below a cent (a single answer often costs less), whole
// dollars with separators from $100.
const dollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return "$0";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 0.01) return `$${Number(usd.toPrecision(2))}`;
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${dollars.format(usd)}`;
}
