/// The audit log: the merchant's operators' latest actions.
enum AuditTemplate {
    static let text = """
        {{> header}}
        <table>
        <caption>Latest operator actions, newest first</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Operator</th><th scope="col">Action</th>
        <th scope="col">Detail</th><th scope="col">Address</th></tr></thead>
        <tbody>
        {{#entries}}<tr><td>{{time}}</td><td>{{operator}}</td><td>{{action}}</td><td>{{detail}}</td><td>{{address}}</td></tr>
        {{/entries}}
        </tbody>
        </table>
        {{> footer}}
        """
}
