// Must not compile: `chnges` is not a field of AddRequest.
import { Database } from "evodb";

new Database().add({ codePath: "/f.py", targetCode: "x", metrics: { score: 1 }, chnges: "typo" }, 0);
