import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { connect } from "./backend";
import { ConfirmProvider } from "./confirm";
import "./styles.css";
import { applyTheme, savedTheme } from "./theme";
import { startupStep } from "./firstScreen";
import { askEarly } from "./startup";

startupStep("script");

// Before the first paint, so a dark theme never flashes light.
applyTheme(savedTheme());
const backend = connect();
askEarly(backend);
// The desktop window starts hidden, so that it never shows WebKit's white
// page: it shows now, in the page's colours, while the first screen's data
// loads (waiting for that data too made the first paint ~80 ms later:
// docs/PERFORMANCE.md).
void backend.showWindow?.().catch(() => undefined);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfirmProvider>
        <App backend={backend} />
      </ConfirmProvider>
    </StrictMode>,
  );
}
