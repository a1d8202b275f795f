package clickhousetest

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"text/template"
)

// User and Password are those of the second user every server has,
// beside "default" (no password), for the tests of credentials.
const (
	User     = "perflab"
	Password = "perflab-test-secret"
)

// config is what one server's config.xml says.
type config struct {
	Dir      string
	HTTPPort int
	TCPPort  int
	// Cluster names the remote_servers entry listing Shards' native
	// ports, one shard each; empty for a lone node.
	Cluster string
	Shards  []int
	User    string
	Pass    string
}

// configTemplate is a server's whole configuration: loopback only, its
// files under Dir, small caches, no system log tables, merges on few
// threads (the tests' machines have two cores), times in UTC. The users
// are in the same file, as 18.16 and current releases both read them
// there when users_config is absent.
var configTemplate = template.Must(template.New("config.xml").Funcs(template.FuncMap{"x": xmlText}).Parse(`<?xml version="1.0"?>
<yandex>
    <logger>
        <level>warning</level>
        <log>{{x .Dir}}/server.log</log>
        <errorlog>{{x .Dir}}/error.log</errorlog>
        <size>10M</size>
        <count>1</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>{{.HTTPPort}}</http_port>
    <tcp_port>{{.TCPPort}}</tcp_port>
    <path>{{x .Dir}}/data/</path>
    <tmp_path>{{x .Dir}}/tmp/</tmp_path>
    <user_files_path>{{x .Dir}}/user_files/</user_files_path>
    <format_schema_path>{{x .Dir}}/format_schemas/</format_schema_path>
    <max_connections>256</max_connections>
    <max_concurrent_queries>64</max_concurrent_queries>
    <mark_cache_size>67108864</mark_cache_size>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <profiles>
        <default>
            <background_pool_size>4</background_pool_size>
            <max_threads>2</max_threads>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <{{.User}}>
            <password>{{x .Pass}}</password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </{{.User}}>
    </users>
    <quotas><default></default></quotas>
{{- if .Cluster}}
    <remote_servers>
        <{{.Cluster}}>
{{- range .Shards}}
            <shard><replica><host>127.0.0.1</host><port>{{.}}</port></replica></shard>
{{- end}}
        </{{.Cluster}}>
    </remote_servers>
{{- end}}
</yandex>
`))

func xmlText(s string) (string, error) {
	var b bytes.Buffer
	err := xml.EscapeText(&b, []byte(s))
	return b.String(), err
}

// write writes c's config.xml into c.Dir, and returns its path.
func (c config) write() (string, error) {
	var b bytes.Buffer
	if err := configTemplate.Execute(&b, c); err != nil {
		return "", err
	}
	path := filepath.Join(c.Dir, "config.xml")
	return path, os.WriteFile(path, b.Bytes(), 0o600)
}
