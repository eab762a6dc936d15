package guard

// messagingRules are registerMessaging's rules, static data: loading the
// batch allocates none of them.
var messagingRules = []*Rule{
	{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"kafka-topics", "kafka-topics.sh"},
		AnyFlag: []string{"--delete"}, Reason: "deleting Kafka topics loses their data; ask the user"},
	{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"kafka-delete-records", "kafka-delete-records.sh"},
		Reason: "deleting Kafka records loses them; ask the user"},
	{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"kafka-consumer-groups", "kafka-consumer-groups.sh"},
		When: whenMessagingKafkaDelete, Reason: "deleting consumer groups or moving their offsets makes consumers skip or replay data; ask the user"},
	{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"kafka-acls", "kafka-acls.sh"},
		AnyFlag: []string{"--remove"}, Reason: "removing Kafka ACLs cuts access; ask the user"},
	{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"kafka-configs", "kafka-configs.sh"},
		AnyFlag: []string{"--delete-config"}, Reason: "deleting topic configuration (retention, cleanup policy) can drop data; ask the user"},
	{ID: ruleMessagingRpkDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rpk"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|trim-prefix") }, Reason: "this deletes Redpanda topics, groups or records; ask the user"},
	{ID: ruleMessagingNatsDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"nats"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|rm|del|purge|remove") }, Reason: "this deletes or purges NATS streams, consumers, KV/object data or accounts; ask the user"},
	{ID: ruleMessagingRabbitmqDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rabbitmqctl"},
		When: whenMessagingRabbitmqDelete, Reason: "this deletes RabbitMQ users, vhosts, permissions or the node's data; ask the user"},
	{ID: ruleMessagingRabbitmqDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rabbitmqadmin"},
		When: func(c *Cmd) bool { return hasVerb(c, 1, "delete|purge") }, Reason: "this deletes or purges RabbitMQ queues or exchanges; ask the user"},
	{ID: ruleMessagingAwsDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"aws"},
		When: whenMessagingAwsDelete, Reason: "this deletes or purges SQS queues or SNS topics and subscriptions; ask the user"},
	{ID: ruleMessagingSqsDeleteMessage, Category: "messaging", Group: "messaging", Verdict: Ask, Names: []string{"aws"},
		Sub: []string{"sqs", "delete-message|delete-message-batch"}, Reason: "this removes messages from a queue; ask the user"},
	{ID: ruleMessagingPubsubDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"gcloud"},
		When: whenMessagingPubsubDelete, Reason: "this deletes Pub/Sub topics or subscriptions; ask the user"},
}

// Opt-in group "messaging": message brokers and queues (Kafka and
// Redpanda, RabbitMQ, NATS/JetStream, AWS SQS/SNS, Google Pub/Sub).
// Deleting topics, queues, streams or their messages is denied; removing
// a single consumed message asks.
func registerMessaging() {
	register(messagingRules...)
	for _, n := range []string{"kafka-topics", "kafka-consumer-groups", "kafka-acls", "kafka-configs", "kafka-delete-records"} {
		setValueOpts(n, "--bootstrap-server", "--topic", "--group", "--command-config", "--entity-type", "--entity-name", "--offset-json-file")
		setValueOpts(n+".sh", "--bootstrap-server", "--topic", "--group", "--command-config", "--entity-type", "--entity-name", "--offset-json-file")
	}
	setValueOpts("rabbitmqctl", "-p", "--vhost", "-n", "--node")
	setValueOpts("nats", "-s", "--server", "--context", "--creds")
}

// whenMessagingKafkaDelete is the condition of rule messaging.kafka-delete.
func whenMessagingKafkaDelete(c *Cmd) bool {
	// --reset-offsets only plans unless --execute is given.
	return c.Has("--delete", "--delete-offsets") || c.Has("--reset-offsets") && c.Has("--execute")
}

// whenMessagingRabbitmqDelete is the condition of rule messaging.rabbitmq-delete.
func whenMessagingRabbitmqDelete(c *Cmd) bool {
	op := posLower(c, 0)
	return hasPrefixAny(op, "delete_", "clear_", "purge_") || oneOf(op, "reset|force_reset|forget_cluster_node")
}

// whenMessagingAwsDelete is the condition of rule messaging.aws-delete.
func whenMessagingAwsDelete(c *Cmd) bool {
	op := posLower(c, 1)
	return oneOf(posLower(c, 0), "sqs|sns") && awsDeleteOp(op) && !oneOf(op, "delete-message|delete-message-batch")
}

// whenMessagingPubsubDelete is the condition of rule messaging.pubsub-delete.
func whenMessagingPubsubDelete(c *Cmd) bool {
	return posLower(c, 0) == "pubsub" && cliVerb(c, 4, []string{"delete", "detach"})
}
