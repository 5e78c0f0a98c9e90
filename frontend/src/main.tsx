import { render } from "preact";
import { App } from "./App";
import { renewIfEnded } from "./session";
import "./styles.css";

renewIfEnded();
render(<App />, document.getElementById("app")!);
