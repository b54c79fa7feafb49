// Each team member's colour, for its name on its messages.
import { createContext, useContext } from "react";
import type { Team } from "../generated/protocol";

// Dark enough for text on the light background (WCAG AA, 4.5:1).
export const PALETTE = ["#1d4ed8", "#be185d", "#047857", "#b45309", "#6d28d9", "#0e7490"];

export const MemberColours = createContext<Record<string, string>>({});

export function coloursOf(team: Team | undefined | null): Record<string, string> {
  return Object.fromEntries((team?.members ?? []).map((m, i) => [m.name, m.colour || PALETTE[i % PALETTE.length]]));
}

export function useMemberColour(name: string | undefined): string | undefined {
  const colours = useContext(MemberColours);
  return name ? colours[name] : undefined;
}
