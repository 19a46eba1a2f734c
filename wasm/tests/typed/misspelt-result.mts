// Must not compile: Info has `lastIteration`, not `lastIteraton`.
import { Database } from "evodb";

console.log(new Database().info().lastIteraton);
