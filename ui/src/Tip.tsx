import * as Tooltip from "@radix-ui/react-tooltip";
import type { ReactElement, ReactNode } from "react";

interface Props {
  label: ReactNode;
  /** One element that takes a ref (a button); it gets the description. */
  children: ReactElement;
  side?: "top" | "bottom" | "left" | "right";
}

/** A label for a control, shown on hover and on keyboard focus (a `title`
 *  shows on hover only) and read as the control's description. */
export function Tip({ label, children, side = "bottom" }: Props) {
  return (
    <Tooltip.Provider delayDuration={500} skipDelayDuration={300}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tip" side={side} sideOffset={4} collisionPadding={8}>
            {label}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
