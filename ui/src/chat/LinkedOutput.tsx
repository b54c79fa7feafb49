import { useContext } from "react";
import { OpenFile, located } from "./codeLinks";

/** A codebase tool's result: each `path:line` a link that opens the file
 *  at that line. */
export function LinkedOutput({ output }: { output: string }) {
  const open = useContext(OpenFile);
  return (
    <pre className="linked-output">
      {output.split("\n").map((line, i) => {
        const at = open ? located(line) : null;
        return (
          <span key={i}>
            {at ? (
              <>
                <button type="button" className="code-link" onClick={() => open?.(at.path, at.line)} title={`Open ${at.path} at line ${at.line}`}>
                  {at.path}:{at.line}
                </button>
                {at.rest}
              </>
            ) : (
              line
            )}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}
