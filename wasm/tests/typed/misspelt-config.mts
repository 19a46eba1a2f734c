// Must not compile: the option is `numIslands`.
import { Simulation } from "evodb";

new Simulation({ numIsland: 4 });
