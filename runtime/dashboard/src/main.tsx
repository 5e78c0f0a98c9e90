import { render } from "preact";
import { App } from "./App.tsx";
import { connect } from "./live.ts";
import "./styles.css";

connect();
render(<App />, document.getElementById("app")!);
