//! The protocol side: `rmcp`'s stdio server on a one-thread tokio runtime. `tools/list` is
//! answered here from the tool table; each `tools/call` is handed to the engine's thread
//! ([`Job`]) and its answer awaited, so this side never touches the run.

use std::borrow::Cow;
use std::sync::mpsc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use tokio::sync::oneshot;

use super::catalogue;
use super::tools::{self, ToolResult};

/// The protocol revisions served: both still open with `initialize`.
const PROTOCOL_VERSIONS: &[ProtocolVersion] = &[ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25];

/// One tool call for the engine's thread.
pub struct Job {
    pub name: String,
    pub arguments: JsonObject,
    pub answer: oneshot::Sender<ToolResult>,
}

#[derive(Clone)]
struct Handler {
    calls: mpsc::Sender<Job>,
}

/// Serves the protocol on stdin/stdout until the client closes it.
pub fn serve(calls: mpsc::Sender<Job>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let service = Handler { calls }.serve(rmcp::transport::stdio()).await.map_err(|e| e.to_string())?;
        service.waiting().await.map_err(|e| e.to_string())?;
        Ok(())
    })
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .with_server_info(Implementation::new("evodb", env!("CARGO_PKG_VERSION")))
            .with_instructions(tools::INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(PROTOCOL_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(catalogue::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (answer, answered) = oneshot::channel();
        let job = Job { name: request.name.to_string(), arguments: request.arguments.unwrap_or_default(), answer };
        let gone = || ErrorData::internal_error("the engine's thread has stopped", None);
        self.calls.send(job).map_err(|_| gone())?;
        let result = answered.await.map_err(|_| gone())?;
        Ok(to_result(result).into())
    }
}

/// A tool's answer as MCP carries it: the JSON text first (what the command prints), then each
/// warning; an object is also the structured content. A refusal is a tool error (`isError`),
/// which the agent reads and corrects, not a protocol error.
fn to_result(result: ToolResult) -> CallToolResult {
    match result {
        Ok(answer) => {
            let mut content = vec![ContentBlock::text(answer.text.clone())];
            content.extend(answer.warnings.iter().map(|w| ContentBlock::text(format!("warning: {w}"))));
            let mut result = CallToolResult::success(content);
            if let Ok(value @ serde_json::Value::Object(_)) = serde_json::from_str(&answer.text) {
                result.structured_content = Some(value);
            }
            result
        }
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}
