//! The MCP server's answers to the protocol itself: what it is, the tools a caller may use
//! and its resources. A call that came over HTTP carries its agent key: a tool its access
//! does not allow is refused, and the store is the one the key may see.

use haema_core::Memory;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource, ResourceContents,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::answers::latest_block;
use super::{CORE_URI, HaemaServer, INSTRUCTIONS, LATEST_RESOURCE_COUNT, LATEST_URI, access, notify};

impl HaemaServer {
    /// The server as this call may use it: over HTTP, the store as its agent key sees it
    /// (its user only, changes waiting for review under propose); over standard input and
    /// output, the whole server.
    fn for_call(&self, context: &RequestContext<RoleServer>) -> Result<Self, ErrorData> {
        let Some(agent) = access::agent_of(context) else {
            return Ok(self.clone());
        };
        let memory = self
            .memory()
            .for_agent(&agent)
            .map_err(|e| ErrorData::invalid_request(e.to_string(), None))?;
        Ok(self.with_memory(memory))
    }

    /// The memory a resource is read from for this call.
    fn memory_of_call(&self, context: &RequestContext<RoleServer>) -> Result<Memory, ErrorData> {
        Ok(self.for_call(context)?.memory())
    }
}

impl ServerHandler for HaemaServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_resources_list_changed()
                .build(),
        )
        .with_server_info(rmcp::model::Implementation::new("haema", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.subscribed.heard();
        if let Some(agent) = access::agent_of(&context) {
            access::allowed(&agent, &request.name)?;
        }
        let server = self.for_call(&context)?;
        let writes = access::needed(&request.name) != haema_core::AgentAccess::Read;
        let call = ToolCallContext::new(&server, request, context);
        let answer = server.tool_router.call(call).await;
        if writes && answer.is_ok() {
            self.own_writes.wrote();
        }
        answer
    }

    /// Every session hears of the store's changes from here on.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.subscribed.heard();
        let memory = self.memory();
        notify::watch_for(
            context.peer,
            || memory.watch(),
            &self.own_writes,
            self.subscribed.clone(),
        );
    }

    /// `resources/subscribe`: `notifications/resources/updated` for `uri` whenever the store
    /// changes.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed.heard();
        known_resource(&request.uri)?;
        self.subscribed.add(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed.heard();
        self.subscribed.remove(&request.uri);
        Ok(())
    }

    async fn ping(&self, _context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.subscribed.heard();
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.subscribed.heard();
        let agent = access::agent_of(&context);
        let tools = self
            .tool_router
            .list_all()
            .into_iter()
            .filter(|tool| {
                agent
                    .as_ref()
                    .is_none_or(|a| a.access.allows(access::needed(&tool.name)))
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.tool_router.get(name).cloned()
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(CORE_URI, "core.md")
                .with_title("Core profile")
                .with_description("SOUL, TOOLS, RULE and USER: who the agent is and what it knows of the user")
                .with_mime_type("text/markdown"),
            Resource::new(LATEST_URI, "latest")
                .with_title("Latest memories")
                .with_description("The 20 most recently learned memories, newest first")
                .with_mime_type("text/markdown"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.subscribed.heard();
        known_resource(&request.uri)?;
        let memory = self.memory_of_call(&context)?;
        let text = if request.uri == CORE_URI {
            memory.get_core().await.map(|text| haema_core::mark_core(&text).block())
        } else {
            let max_chars = memory.settings().recall.max_chars;
            memory
                .get_latest_records(1, LATEST_RESOURCE_COUNT)
                .await
                .map(|records| latest_block(&records, max_chars))
        }
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, request.uri).with_mime_type("text/markdown"),
        ])
        .into())
    }
}

/// `Ok` for one of haema's resources, else the error that names them.
fn known_resource(uri: &str) -> Result<(), ErrorData> {
    if uri == CORE_URI || uri == LATEST_URI {
        return Ok(());
    }
    Err(ErrorData::resource_not_found(
        format!("no resource `{uri}`; haema has {CORE_URI} and {LATEST_URI}"),
        None,
    ))
}
