import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { ConfirmProvider } from "./confirm";
import "./styles.css";
import { applyTheme, savedTheme } from "./theme";

// Before the first paint, so a dark theme never flashes light.
applyTheme(savedTheme());

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfirmProvider>
        <App />
      </ConfirmProvider>
    </StrictMode>,
  );
}
