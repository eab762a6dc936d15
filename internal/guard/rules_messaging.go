package guard

// Opt-in group "messaging": message brokers and queues (Kafka and
// Redpanda, RabbitMQ, NATS/JetStream, AWS SQS/SNS, Google Pub/Sub).
// Deleting topics, queues, streams or their messages is denied; removing
// a single consumed message asks.
func registerMessaging() {
	kafka := func(tool string) []string { return []string{tool, tool + ".sh"} }
	register(
		&Rule{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: kafka("kafka-topics"),
			AnyFlag: []string{"--delete"}, Reason: "deleting Kafka topics loses their data; ask the user"},
		&Rule{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: kafka("kafka-delete-records"),
			Reason: "deleting Kafka records loses them; ask the user"},
		&Rule{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: kafka("kafka-consumer-groups"),
			When: whenMessagingKafkaDelete, Reason: "deleting consumer groups or moving their offsets makes consumers skip or replay data; ask the user"},
		&Rule{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: kafka("kafka-acls"),
			AnyFlag: []string{"--remove"}, Reason: "removing Kafka ACLs cuts access; ask the user"},
		&Rule{ID: ruleMessagingKafkaDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: kafka("kafka-configs"),
			AnyFlag: []string{"--delete-config"}, Reason: "deleting topic configuration (retention, cleanup policy) can drop data; ask the user"},
		&Rule{ID: ruleMessagingRpkDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rpk"},
			When: verbIn(2, "delete|trim-prefix"), Reason: "this deletes Redpanda topics, groups or records; ask the user"},
		&Rule{ID: ruleMessagingNatsDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"nats"},
			When: verbIn(2, "delete|rm|del|purge|remove"), Reason: "this deletes or purges NATS streams, consumers, KV/object data or accounts; ask the user"},
		&Rule{ID: ruleMessagingRabbitmqDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rabbitmqctl"},
			When: whenMessagingRabbitmqDelete, Reason: "this deletes RabbitMQ users, vhosts, permissions or the node's data; ask the user"},
		&Rule{ID: ruleMessagingRabbitmqDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"rabbitmqadmin"},
			When: verbIn(1, "delete|purge"), Reason: "this deletes or purges RabbitMQ queues or exchanges; ask the user"},
		&Rule{ID: ruleMessagingAwsDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"aws"},
			When: whenMessagingAwsDelete, Reason: "this deletes or purges SQS queues or SNS topics and subscriptions; ask the user"},
		&Rule{ID: ruleMessagingSqsDeleteMessage, Category: "messaging", Group: "messaging", Verdict: Ask, Names: []string{"aws"},
			Sub: []string{"sqs", "delete-message|delete-message-batch"}, Reason: "this removes messages from a queue; ask the user"},
		&Rule{ID: ruleMessagingPubsubDelete, Category: "messaging", Group: "messaging", Verdict: Deny, Names: []string{"gcloud"},
			When: whenMessagingPubsubDelete, Reason: "this deletes Pub/Sub topics or subscriptions; ask the user"},
	)
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
