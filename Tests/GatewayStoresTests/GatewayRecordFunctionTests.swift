import Foundation
import NIOPosix
import PostgresNIO
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// `gateway_record` is defined once, for the function and the writer alike: the installed
/// function's parameters are the writer's bindings, and an older declaration is replaced.
@Suite("PostgreSQL record function", .blocksThreads)
struct GatewayRecordFunctionTests {
    @Test("the writer binds exactly the parameters the definition declares, in its types")
    func writerMatchesDefinition() {
        let statement = PostgresRecordWriter.RecordBatchStatement(records: [
            SampleRecords.record(order: "bound", applePay: "apple-bound"), SampleRecords.record(order: "bound-too"),
        ])
        let types = PostgresRecordWriter.RecordBatchStatement.bindingDataTypes
        #expect(statement.makeBindings().count == types.count)
        #expect(types == GatewayRecordFunction.parameterTypes.map(\.arrayDataType))
        #expect(GatewayRecordFunction.receiptParameters.count == ReceiptColumns.columns.count)
        #expect(Set(GatewayRecordFunction.recordParameters.map(\.name)).count == GatewayRecordFunction.recordParameters.count)
    }

    @Test("the installed function takes what the writer binds, and replaces any older declaration")
    func installedMatchesWriter() async throws {
        let server = try await PostgresTestServer.shared()
        let location = try StoreFixture.postgresLocation(try await server.createDatabase())
        let identity = "SELECT pg_get_function_identity_arguments(oid) FROM pg_proc WHERE proname = 'gateway_record'"
        let first = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await first.prepare()
        let declared = (GatewayRecordFunction.recordParameters.map { ($0.name, $0.type) } + GatewayRecordFunction.receiptParameters)
            .map { "\($0.0) \($0.1 == .bigint ? "bigint" : $0.1 == .boolean ? "boolean" : $0.1.rawValue)" }
            .joined(separator: ", ")
        #expect(try await server.psql(identity, database: location.database) == declared)
        #expect(try await first.record(SampleRecords.record(order: "through-the-function")) == .recorded)
        await first.close()

        // A database that kept an earlier release's declaration (another signature) and is at
        // the current schema version: the next start-up leaves only this build's function.
        _ = try await server.psql(
            "CREATE FUNCTION gateway_record(p_merchant text) RETURNS TABLE (outcome text) LANGUAGE sql AS $$ SELECT 'recorded' $$",
            database: location.database
        )
        _ = try await server.psql("COMMENT ON FUNCTION gateway_record(text) IS 'older'", database: location.database)
        _ = try await server.psql(
            "DO $$ BEGIN EXECUTE 'COMMENT ON FUNCTION gateway_record(' || (SELECT pg_get_function_identity_arguments(oid) FROM pg_proc WHERE proname = 'gateway_record' AND pronargs > 1) || ') IS ''edited'''; END $$",
            database: location.database
        )
        let second = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await second.prepare()
        #expect(try await server.psql(identity, database: location.database) == declared)
        #expect(
            try await server.psql("SELECT obj_description(oid, 'pg_proc') FROM pg_proc WHERE proname = 'gateway_record'", database: location.database)
                == GatewayRecordFunction.digest
        )
        #expect(try await second.record(SampleRecords.record(order: "after-replacing")) == .recorded)
        #expect(try await second.order(merchantId: "M", orderId: "after-replacing") != nil)
        await second.close()
    }
}
