import { useMemberColour } from "./colours";

/** Who said a message: a team member's name in its colour, or the role. */
export function Speaker({ role, author }: { role: string; author?: string | null }) {
  const colour = useMemberColour(author ?? undefined);
  if (!author) return <span className="who">{role}</span>;
  return (
    <span className="who member" style={colour ? { color: colour } : undefined} data-testid="speaker">
      {author}
    </span>
  );
}
