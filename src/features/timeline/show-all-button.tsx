import { Button } from "../../components/button";

/** The "show all" under a bounded block; says how many lines it would add. */
export function ShowAllButton({
  hidden,
  what,
  onShowAll,
}: {
  hidden: number;
  what: string;
  onShowAll: () => void;
}) {
  if (hidden === 0) return null;
  return (
    <Button size="sm" tone="ghost" onClick={onShowAll} className="mt-1">
      Show all ({hidden} more {hidden === 1 ? "line" : "lines"} of {what})
    </Button>
  );
}
